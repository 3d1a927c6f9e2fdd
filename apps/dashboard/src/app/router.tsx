import type { ComponentType } from 'react'
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router'
import { LoadingState } from '../components/ui/Spinner'
import { SignInPage } from '../features/auth/SignInPage'
import { NotFoundPage } from '../features/not-found/NotFoundPage'
import { AppLayout } from './layouts/AppLayout'
import { RequireAuth } from './RequireAuth'

/*
 * Pages load on demand, by area (route-level code splitting), so the sign-in page and the
 * first screen do not wait for every feature. A project page loads the project shell ('project')
 * and its own area, in parallel; heavy parts inside a page (Monaco, the results grid, charts) load
 * when first shown. `npm run bench` checks each route's first load against its budget.
 */
type Areas = {
  organizations: typeof import('./areas/organizations')
  account: typeof import('./areas/account')
  project: typeof import('./areas/project')
  projectHome: typeof import('./areas/project-home')
  database: typeof import('./areas/database')
  storage: typeof import('./areas/storage')
  authentication: typeof import('./areas/authentication')
  functions: typeof import('./areas/functions')
  reports: typeof import('./areas/reports')
  advisors: typeof import('./areas/advisors')
  logs: typeof import('./areas/logs')
  projectSettings: typeof import('./areas/project-settings')
  sqlEditor: typeof import('./areas/sql-editor')
  tableEditor: typeof import('./areas/table-editor')
  branching: typeof import('./areas/branching')
  realtime: typeof import('./areas/realtime')
}
const loaders: { [K in keyof Areas]: () => Promise<Areas[K]> } = {
  organizations: () => import('./areas/organizations'),
  account: () => import('./areas/account'),
  project: () => import('./areas/project'),
  projectHome: () => import('./areas/project-home'),
  database: () => import('./areas/database'),
  storage: () => import('./areas/storage'),
  authentication: () => import('./areas/authentication'),
  functions: () => import('./areas/functions'),
  reports: () => import('./areas/reports'),
  advisors: () => import('./areas/advisors'),
  logs: () => import('./areas/logs'),
  projectSettings: () => import('./areas/project-settings'),
  sqlEditor: () => import('./areas/sql-editor'),
  tableEditor: () => import('./areas/table-editor'),
  branching: () => import('./areas/branching'),
  realtime: () => import('./areas/realtime'),
}

/** Route `lazy` for a component exported by an area module. */
function page<A extends keyof Areas>(area: A, name: keyof Areas[A]): RouteObject['lazy'] {
  return () => loaders[area]().then((module) => ({ Component: module[name] as ComponentType }))
}

/** Every route the project layout reads (spec "Routes read by the project layout"). */
const projectRoutes: RouteObject[] = [
  { index: true, lazy: page('projectHome', 'ProjectHomePage') },
  // One route for /sql and /sql/{id}: a draft that becomes a snippet moves to its address without a remount.
  { path: 'sql/new', lazy: page('sqlEditor', 'NewQueryRedirect') },
  { path: 'sql/:id?', lazy: page('sqlEditor', 'SqlEditorPage') },
  { path: 'editor/:id?', lazy: page('tableEditor', 'TableEditorPage') },
  { path: 'database', element: <Navigate to="tables" replace /> },
  { path: 'database/tables', lazy: page('database', 'DatabaseTablesPage') },
  { path: 'database/functions', lazy: page('database', 'DatabaseFunctionsPage') },
  { path: 'database/triggers', lazy: page('database', 'DatabaseTriggersPage') },
  { path: 'database/types', lazy: page('database', 'EnumeratedTypesPage') },
  { path: 'database/indexes', lazy: page('database', 'DatabaseIndexesPage') },
  { path: 'database/publications', lazy: page('database', 'PublicationsPage') },
  { path: 'database/roles', lazy: page('database', 'DatabaseRolesPage') },
  { path: 'database/policies', lazy: page('database', 'DatabasePoliciesPage') },
  { path: 'database/extensions', lazy: page('database', 'ExtensionsPage') },
  { path: 'database/migrations', lazy: page('database', 'MigrationsPage') },
  { path: 'database/backups', element: <Navigate to="scheduled" replace /> },
  { path: 'database/backups/scheduled', lazy: page('database', 'ScheduledBackupsPage') },
  { path: 'database/backups/pitr', lazy: page('branching', 'PitrPage') },
  { path: 'auth', element: <Navigate to="users" replace /> },
  { path: 'auth/users', lazy: page('authentication', 'AuthUsersPage') },
  { path: 'auth/outbox', lazy: page('authentication', 'AuthOutboxPage') },
  { path: 'auth/providers', lazy: page('authentication', 'AuthProvidersPage') },
  { path: 'auth/mfa', lazy: page('authentication', 'AuthMfaPage') },
  { path: 'auth/rate-limits', lazy: page('authentication', 'AuthRateLimitsPage') },
  { path: 'auth/smtp', lazy: page('authentication', 'AuthSmtpPage') },
  { path: 'storage', lazy: page('storage', 'StoragePage') },
  { path: 'storage/buckets/:bucketId', lazy: page('storage', 'BucketExplorerPage') },
  { path: 'realtime', element: <Navigate to="inspector" replace /> },
  { path: 'realtime/inspector', lazy: page('realtime', 'RealtimeInspectorPage') },
  { path: 'realtime/settings', lazy: page('realtime', 'RealtimeSettingsPage') },
  { path: 'functions', lazy: page('functions', 'FunctionsPage') },
  { path: 'functions/secrets', lazy: page('functions', 'FunctionSecretsPage') },
  { path: 'functions/:slug', element: <Navigate to="details" replace /> },
  { path: 'functions/:slug/details', lazy: page('functions', 'FunctionDetailsPage') },
  { path: 'reports', lazy: page('reports', 'ReportsPage') },
  { path: 'reports/:id', lazy: page('reports', 'ReportPage') },
  { path: 'advisors', element: <Navigate to="security" replace /> },
  { path: 'advisors/:kind', lazy: page('advisors', 'AdvisorsPage') },
  { path: 'logs', element: <Navigate to="explorer" replace /> },
  { path: 'logs/explorer', lazy: page('logs', 'LogsExplorerPage') },
  { path: 'branches', lazy: page('branching', 'BranchesPage') },
  { path: 'addons', lazy: page('branching', 'AddonsPage') },
  { path: 'infrastructure', lazy: page('projectSettings', 'InfrastructurePage') },
  { path: 'settings', element: <Navigate to="general" replace /> },
  { path: 'settings/general', lazy: page('projectSettings', 'ProjectGeneralSettingsPage') },
  { path: 'settings/compute-and-disk', lazy: page('projectSettings', 'ComputeAndDiskPage') },
  { path: 'settings/database', lazy: page('projectSettings', 'DatabaseSettingsPage') },
  { path: 'settings/infrastructure', lazy: page('projectSettings', 'InfrastructurePage') },
  { path: 'settings/addons', lazy: page('branching', 'AddonsPage') },
  { path: 'settings/vault', lazy: page('database', 'VaultSecretsPage') },
  { path: 'integrations/webhooks', lazy: page('database', 'DatabaseWebhooksPage') },
  { path: 'integrations/cron', lazy: page('database', 'CronJobsPage') },
  { path: 'settings/api', lazy: page('projectSettings', 'ApiSettingsPage') },
  { path: 'settings/jwt', lazy: page('projectSettings', 'JwtKeysPage') },
  { path: 'api/graphiql', lazy: page('projectSettings', 'GraphiqlPage') },
  { path: '*', element: <NotFoundPage embedded /> },
]

export const router = createBrowserRouter([
  { path: '/sign-in', element: <SignInPage /> },
  // An invitation link: open to anyone holding it, signed in or not.
  { path: '/invite/:token', lazy: page('organizations', 'AcceptInvitationPage'), hydrateFallbackElement: <LoadingState /> },
  {
    element: <RequireAuth />,
    hydrateFallbackElement: <LoadingState />,
    children: [
      { index: true, element: <Navigate to="/organizations" replace /> },
      {
        element: <AppLayout />,
        children: [
          { path: 'organizations', lazy: page('organizations', 'OrganizationsPage') },
          {
            path: 'org/:slug',
            lazy: page('organizations', 'OrgLayout'),
            children: [
              { index: true, lazy: page('organizations', 'OrgProjectsPage') },
              { path: 'team', lazy: page('organizations', 'OrgTeamPage') },
              { path: 'general', lazy: page('organizations', 'OrgGeneralPage') },
              { path: 'billing', lazy: page('organizations', 'OrgBillingPage') },
              { path: 'integrations', lazy: page('organizations', 'OrgIntegrationsPage') },
            ],
          },
          { path: 'new', lazy: page('organizations', 'NewProjectRedirect') },
          { path: 'new/:slug', lazy: page('organizations', 'NewProjectPage') },
          {
            path: 'account',
            lazy: page('account', 'AccountLayout'),
            children: [
              { index: true, element: <Navigate to="me" replace /> },
              { path: 'me', lazy: page('account', 'AccountMePage') },
              { path: 'tokens', lazy: page('account', 'AccessTokensPage') },
            ],
          },
          { path: 'support/new', lazy: page('account', 'SupportPage') },
          { path: 'installation/ai', lazy: page('account', 'AiSettingsPage') },
        ],
      },
      { path: 'project/:ref', lazy: page('project', 'ProjectLayout'), children: projectRoutes },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
])
