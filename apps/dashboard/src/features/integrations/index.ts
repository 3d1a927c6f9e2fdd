// Organization integrations: the GitHub connections page (/org/{slug}/integrations).
export { OrgIntegrationsPage } from './OrgIntegrationsPage'
