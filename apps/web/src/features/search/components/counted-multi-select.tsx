export { CountedMultiSelect } from '../../../components/filters/counted-multi-select.tsx';
