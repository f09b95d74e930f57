/**
 * The route map (document 1 section 2, document 2 section 2, document 3 section 2). Screens load
 * lazily from their feature's routes/ folder; each route's handle names its page title.
 */
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader.tsx';
import { paths } from '../config/paths.ts';
import {
  canOpenSiteSettings,
  canOpenUserAdministration,
  canOpenUserRecord,
  PublicFrame,
  RedirectIfSignedIn,
  RequireAccess,
  RequireAnalyticsAccess,
  RequireAuth,
} from './guards.tsx';
import { NotFound } from './routes/not-found.tsx';
import { Root, type RouteHandle } from './routes/root.tsx';

type RouteModule = { Component: React.ComponentType };

/** A route whose screen module is loaded on first visit. */
function screen(path: string, title: string, load: () => Promise<RouteModule>): RouteObject {
  const handle: RouteHandle = { title };
  return { path, handle, lazy: async () => ({ Component: (await load()).Component }) };
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    HydrateFallback: FullPageLoader,
    children: [
      { path: paths.root.route, element: <Navigate to={paths.home.href()} replace /> },
      {
        element: <PublicFrame />,
        children: [
          {
            element: <RedirectIfSignedIn />,
            children: [
              screen(paths.login.route, paths.login.title, () => import('../features/auth/routes/login.tsx')),
            ],
          },
          screen(
            paths.reset.route,
            paths.reset.title,
            () => import('../features/auth/routes/reset-password.tsx'),
          ),
          screen(
            paths.resetWithToken.route,
            paths.resetWithToken.title,
            () => import('../features/auth/routes/reset-password.tsx'),
          ),
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          screen(paths.home.route, paths.home.title, () => import('../features/home/routes/home.tsx')),
          screen(
            paths.search.route,
            paths.search.title,
            () => import('../features/search/routes/search.tsx'),
          ),
          screen(
            paths.topworst.route,
            paths.topworst.title,
            () => import('../features/topworst/routes/topworst.tsx'),
          ),
          screen(
            paths.fragranceAttributes.route,
            paths.fragranceAttributes.title,
            () => import('../features/fragrance-attributes/routes/fragrance-attributes.tsx'),
          ),
          screen(
            paths.categoryProfile.route,
            paths.categoryProfile.title,
            () => import('../features/category-profile/routes/category-profile.tsx'),
          ),
          screen(
            paths.groupComparison.route,
            paths.groupComparison.title,
            () => import('../features/group-comparison/routes/group-comparison.tsx'),
          ),
          screen(
            paths.analytics.route,
            paths.analytics.title,
            () => import('../features/analytics/routes/analytics.tsx'),
          ),
          screen(
            paths.fragranceProfile.route,
            paths.fragranceProfile.title,
            () => import('../features/profiles/routes/fragrance-profile.tsx'),
          ),
          screen(
            paths.fragrance.route,
            paths.fragrance.title,
            () => import('../features/fragrance/routes/fragrance.tsx'),
          ),
          screen(
            paths.conceptProfile.route,
            paths.conceptProfile.title,
            () => import('../features/profiles/routes/concept-profile.tsx'),
          ),
          screen(paths.norms.route, paths.norms.title, () => import('../features/norms/routes/norms.tsx')),
          screen(
            paths.drivers.route,
            paths.drivers.title,
            () => import('../features/drivers/routes/drivers.tsx'),
          ),
          {
            element: <RequireAnalyticsAccess section={paths.plan.title} />,
            children: [
              screen(paths.plan.route, paths.plan.title, () => import('../features/planner/routes/plan.tsx')),
            ],
          },
          {
            element: <RequireAnalyticsAccess section={paths.cics.title} />,
            children: [
              screen(paths.cics.route, paths.cics.title, () => import('../features/cics/routes/cics.tsx')),
            ],
          },
          screen(
            paths.studyDetails.route,
            paths.studyDetails.title,
            () => import('../features/study/routes/study-details.tsx'),
          ),
          screen(
            paths.studyMapping.route,
            paths.studyMapping.title,
            () => import('../features/mapping/routes/study-mapping.tsx'),
          ),
          screen(
            paths.studyStatistics.route,
            paths.studyStatistics.title,
            () => import('../features/study/routes/study-statistics.tsx'),
          ),
          screen(
            paths.studyStructure.route,
            paths.studyStructure.title,
            () => import('../features/study/routes/study-structure.tsx'),
          ),
          {
            element: <RequireAnalyticsAccess section={paths.studiesUpload.title} />,
            children: [
              screen(
                paths.studiesUpload.route,
                paths.studiesUpload.title,
                () => import('../features/studies-upload/routes/studies-upload.tsx'),
              ),
              screen(
                paths.studiesUploadDetails.route,
                paths.studiesUploadDetails.title,
                () => import('../features/studies-upload/routes/verify-studies.tsx'),
              ),
            ],
          },
          {
            element: <RequireAnalyticsAccess section={paths.statisticsGenerator.title} />,
            children: [
              screen(
                paths.statisticsGenerator.route,
                paths.statisticsGenerator.title,
                () => import('../features/statistics-generator/routes/statistics-generator.tsx'),
              ),
              screen(
                paths.rdfUpload.route,
                paths.rdfUpload.title,
                () => import('../features/statistics-generator/routes/rdf-upload.tsx'),
              ),
              screen(
                paths.rdfUploadId.route,
                paths.rdfUploadId.title,
                () => import('../features/statistics-generator/routes/rdf-upload.tsx'),
              ),
              screen(
                paths.rdfSearch.route,
                paths.rdfSearch.title,
                () => import('../features/statistics-generator/routes/rdf-search.tsx'),
              ),
            ],
          },
          {
            element: <RequireAccess rule={canOpenSiteSettings} />,
            children: [
              screen(
                paths.adminPanel.route,
                paths.adminPanel.title,
                () => import('../features/settings/routes/site-settings.tsx'),
              ),
            ],
          },
          {
            element: <RequireAccess rule={canOpenUserAdministration} />,
            children: [
              screen(
                paths.userList.route,
                paths.userList.title,
                () => import('../features/users/routes/user-list.tsx'),
              ),
              screen(
                paths.addUser.route,
                paths.addUser.title,
                () => import('../features/users/routes/add-user.tsx'),
              ),
            ],
          },
          {
            element: <RequireAccess rule={canOpenUserRecord} />,
            children: [
              screen(
                paths.userPage.route,
                paths.userPage.title,
                () => import('../features/users/routes/user-page.tsx'),
              ),
              screen(
                paths.editUser.route,
                paths.editUser.title,
                () => import('../features/users/routes/edit-user.tsx'),
              ),
            ],
          },
          { path: '*', element: <NotFound />, handle: { title: 'Page not found' } satisfies RouteHandle },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
