/** The routes the branching screens link to (spec api-docs-assistant-sql-panel §2.1). */
export const billingUpgradeUrl = (orgSlug: string, source = 'enableBranchingButton') => `/org/${orgSlug}/billing?panel=subscriptionPlan&source=${source}`
export const pitrAddonUrl = (projectRef: string) => `/project/${projectRef}/settings/addons?panel=pitr`
export const githubIntegrationsUrl = (orgSlug: string) => `/org/${orgSlug}/integrations`
export const githubRepositoryUrl = (repository: string) => `https://github.com/${repository}`
