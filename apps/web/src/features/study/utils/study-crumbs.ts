import type { Crumb } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';

/** Home > Search > Study {id} [> current]. */
export function studyCrumbs(id: string, current?: string): Crumb[] {
  const crumbs: Crumb[] = [
    { label: 'Home', href: paths.home.href() },
    { label: 'Search', href: paths.search.href() },
    { label: `Study ${id}`, href: current ? paths.studyDetails.href(id) : undefined },
  ];
  return current ? [...crumbs, { label: current }] : crumbs;
}
