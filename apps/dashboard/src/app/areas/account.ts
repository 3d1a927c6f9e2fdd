// Pages loaded together on demand: the user's account, support requests and the installation's AI provider.
export { AccountLayout } from '../layouts/AccountLayout'
export { AccountMePage } from '../../features/account/AccountMePage'
export { AccessTokensPage } from '../../features/account/AccessTokensPage'
export { SupportPage } from '../../features/support/SupportPage'
export { AiSettingsPage } from '../../features/ai-settings'
