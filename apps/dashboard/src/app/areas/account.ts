// Pages loaded together on demand: the user's account and support requests.
export { AccountLayout } from '../layouts/AccountLayout'
export { AccountMePage } from '../../features/account/AccountMePage'
export { AccessTokensPage } from '../../features/account/AccessTokensPage'
export { SupportPage } from '../../features/support/SupportPage'
