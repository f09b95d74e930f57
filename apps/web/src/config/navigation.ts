/**
 * The product's sections: the sidebar entries and the home screen cards (document 1 sections 1 and
 * 2) come from this one list, so a section is added in one place.
 */
import type { Icon } from '@tabler/icons-react';
import {
  IconCalculator,
  IconChartBar,
  IconChartDots3,
  IconChartHistogram,
  IconCloudUpload,
  IconFlask2,
  IconHeartbeat,
  IconMessageCircleSearch,
  IconScale,
  IconSearch,
  IconSparkles,
  IconTrophy,
} from '@tabler/icons-react';
import type { Permissions } from '@accord/contracts';
import { paths } from './paths.ts';

export interface Section {
  key: string;
  /** Sidebar label and card header. */
  label: string;
  /** Card content text. */
  description: string;
  href: string;
  icon: Icon;
  /**
   * A card that is switched off shows "(Inactive)" and a disabled link. A section is switched on when
   * its screens are built; until then its route shows only its title (the sidebar still lists it).
   */
  active: boolean;
  /** Shown only to admins and users with analytics access. */
  analyticsOnly: boolean;
  /**
   * Further routes that belong to this section in the sidebar: a profile is reached from the search
   * results (its breadcrumb is Home > Search > Profile), though its path sits under /analytics.
   */
  alsoHighlights?: readonly RegExp[];
  /** Routes under `href` that belong to another section. */
  excludes?: readonly RegExp[];
}

/** Fragrance and concept profiles: /analytics/profile/{id}/{code} and /analytics/concept/{id}/{code}. */
const PROFILE_PATH = /^\/analytics\/(profile|concept)(\/|$)/;

export const SECTIONS: readonly Section[] = [
  {
    key: 'search',
    label: 'Search for Study',
    description: 'Explore studies, results, study material',
    href: paths.search.href(),
    icon: IconSearch,
    active: true,
    analyticsOnly: false,
    alsoHighlights: [PROFILE_PATH],
  },
  {
    key: 'topworst',
    label: 'Best/Worst Testers',
    description: 'Based on consumer hedonic scores',
    href: paths.topworst.href(),
    icon: IconTrophy,
    active: true,
    analyticsOnly: false,
  },
  {
    key: 'fragrance-profile',
    label: 'Fragrance Profile',
    description: 'Which fragrances are perceived as clean, relaxing, good for every day use, etc.',
    href: paths.fragranceAttributes.href(),
    icon: IconSparkles,
    active: true,
    analyticsOnly: false,
  },
  {
    key: 'category-profile',
    label: 'Category Profile',
    description: 'How consumers view a category',
    href: paths.categoryProfile.href(),
    icon: IconChartBar,
    active: true,
    analyticsOnly: false,
  },
  {
    key: 'group-comparison',
    label: 'Group Comparison',
    description: 'Compare two groups, e.g. fragrances or business units',
    href: paths.groupComparison.href(),
    icon: IconScale,
    active: true,
    analyticsOnly: false,
  },
  {
    key: 'norms',
    label: 'Norms',
    description: 'How a score compares with the library: percentiles and action standards',
    href: paths.norms.href(),
    icon: IconChartHistogram,
    active: true,
    analyticsOnly: false,
  },
  {
    key: 'drivers',
    label: 'Drivers of Liking',
    description: 'What makes a fragrance of a category liked, across the library',
    href: paths.drivers.href(),
    icon: IconHeartbeat,
    active: true,
    analyticsOnly: false,
  },
  {
    key: 'plan',
    label: 'Study Planner',
    description: 'How many consumers the next test needs, from the library',
    href: paths.plan.href(),
    icon: IconCalculator,
    active: true,
    analyticsOnly: true,
  },
  {
    key: 'analytics',
    label: 'Advanced Analytics',
    description: 'Customized analytics',
    href: paths.analytics.href(),
    icon: IconChartDots3,
    active: true,
    analyticsOnly: true,
    excludes: [PROFILE_PATH],
  },
  {
    key: 'cics',
    label: 'CICS',
    description: 'Search CICS data',
    href: paths.cics.href(),
    icon: IconMessageCircleSearch,
    active: true,
    analyticsOnly: true,
  },
  {
    key: 'studies-upload',
    label: 'Studies Upload',
    description: 'Upload study files',
    href: paths.studiesUpload.href(),
    icon: IconCloudUpload,
    active: true,
    analyticsOnly: true,
  },
  {
    key: 'statistics-generator',
    label: 'Statistics Generator',
    description: 'Statistics from RDF data',
    href: paths.statisticsGenerator.href(),
    icon: IconFlask2,
    active: true,
    analyticsOnly: true,
  },
];

/** The sections a user with these permissions may see (document 1 section 6). */
export function visibleSections(permissions: Permissions): Section[] {
  const analytics = permissions.isAdmin || permissions.canAccessAnalytics;
  return SECTIONS.filter((section) => analytics || !section.analyticsOnly);
}

/** Whether the sidebar entry of `section` is the current one at `pathname`. */
export function isSectionCurrent(
  section: Pick<Section, 'href' | 'alsoHighlights' | 'excludes'>,
  pathname: string,
): boolean {
  const strip = (path: string) => path.replace(/\/+$/, '');
  const current = strip(pathname);
  if (section.excludes?.some((pattern) => pattern.test(current))) return false;
  if (section.alsoHighlights?.some((pattern) => pattern.test(current))) return true;
  const target = strip(section.href);
  return current === target || current.startsWith(`${target}/`);
}
