import type { Crumb } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';

/** Home > Search > {CMI #} (Study {id} until it is known) [> current]. */
export function studyCrumbs(id: string, current?: string, cMiNumber?: string | null): Crumb[] {
  const crumbs: Crumb[] = [
    { label: 'Home', href: paths.home.href() },
    { label: 'Search', href: paths.search.href() },
    { label: cMiNumber || `Study ${id}`, href: current ? paths.studyDetails.href(id) : undefined },
  ];
  return current ? [...crumbs, { label: current }] : crumbs;
}
