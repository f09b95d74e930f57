export {
  SAVE_OR_DISCARD_TEXT,
  SAVE_OR_DISCARD_TITLE,
  SaveOrDiscardModal,
} from '../../../components/saved-searches/save-or-discard-modal.tsx';
