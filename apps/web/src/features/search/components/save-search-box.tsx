export { SaveSearchBox } from '../../../components/saved-searches/save-search-box.tsx';
