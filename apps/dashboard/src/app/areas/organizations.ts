// Pages loaded together on demand: everything about organizations and creating projects.
export { OrgLayout } from '../layouts/OrgLayout'
export { NewProjectRedirect } from '../NewProjectRedirect'
export { OrganizationsPage } from '../../features/organizations/OrganizationsPage'
export { OrgProjectsPage } from '../../features/organizations/OrgProjectsPage'
export { OrgTeamPage } from '../../features/organizations/OrgTeamPage'
export { OrgGeneralPage } from '../../features/organizations/OrgGeneralPage'
export { OrgBillingPage } from '../../features/organizations/OrgBillingPage'
export { NewProjectPage } from '../../features/projects/NewProjectPage'
