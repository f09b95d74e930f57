/**
 * How other screens open Advanced Analytics with a search to run (document 3 section 2: the
 * Best/Worst and Attributes wizards). The route takes the same values from the navigation state
 * and from the URL, so a link can be shared or reloaded:
 *
 *   state:  { startSearch: true, hideDescription?: true, header?: string, query: <request or filters> }
 *   search: ?startSearch=true&hideDescription=true&header=...&q=<JSON of the request>&no_cache=true
 *
 * `query` (and `q`) is a MetricSearchRequest body ({ type, q: AnalyticsQuery }) or the AnalyticsQuery
 * filters alone ({ essentials, fragranceDetails, demographics, metrics }).
 */
import type { AnalyticsQuery, MetricSearchRequest } from '@accord/contracts';
import type { NavigateFunction } from 'react-router';
import { paths } from '../../../config/paths.ts';

/** The header the wizards show above the filters of the search they open. */
export const CONFIRM_SELECTIONS_HEADER = 'Confirm your selections:';

export interface AnalyticsLaunch {
  /** Run the search at once and collapse the filters. */
  startSearch?: boolean;
  /** Hide the screen's description line. */
  hideDescription?: boolean;
  /** Replaces the description (the wizards use 'Confirm your selections:'). */
  header?: string;
  /** Passed on to the searches as no_cache. */
  noCache?: boolean;
  query: MetricSearchRequest | AnalyticsQuery;
  /** Navigation that needs no leave confirmation of the screen it leaves. */
  allowLocationChange?: boolean;
}

/** The navigation state /analytics reads (see the module comment). */
export interface AnalyticsRouteState {
  startSearch?: boolean;
  hideDescription?: boolean;
  header?: string;
  query?: unknown;
  allowLocationChange?: boolean;
}

/** A shareable /analytics address that opens the screen with the search (and runs it when asked). */
export function analyticsSearchHref(launch: AnalyticsLaunch): string {
  const params = new URLSearchParams();
  if (launch.startSearch) params.set('startSearch', 'true');
  if (launch.hideDescription) params.set('hideDescription', 'true');
  if (launch.header) params.set('header', launch.header);
  if (launch.noCache) params.set('no_cache', 'true');
  params.set('q', JSON.stringify(launch.query));
  return `${paths.analytics.href()}?${params.toString()}`;
}

/** Opens /analytics with the search in the navigation state (and the flags in the URL). */
export function navigateToAnalytics(navigate: NavigateFunction, launch: AnalyticsLaunch): void {
  const params = new URLSearchParams();
  if (launch.startSearch) params.set('startSearch', 'true');
  if (launch.hideDescription) params.set('hideDescription', 'true');
  if (launch.noCache) params.set('no_cache', 'true');
  const search = params.toString();
  const state: AnalyticsRouteState = {
    startSearch: launch.startSearch,
    hideDescription: launch.hideDescription,
    header: launch.header,
    query: launch.query,
    allowLocationChange: launch.allowLocationChange ?? true,
  };
  void navigate(`${paths.analytics.href()}${search ? `?${search}` : ''}`, { state });
}
