import { FragrancePage } from '../components/fragrance-page.tsx';

/** Route module of a fragrance across all its tests, /fragrance/{code}. */
export function Component() {
  return <FragrancePage />;
}
