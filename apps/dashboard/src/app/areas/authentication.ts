// Loaded on demand: the project's auth service (users, outbox, sign-in settings, rate limits).
export { AuthUsersPage } from '../../features/auth-users/AuthUsersPage'
export { AuthOutboxPage } from '../../features/auth-users/AuthOutboxPage'
export { AuthProvidersPage } from '../../features/auth-users/AuthProvidersPage'
export { AuthMfaPage } from '../../features/auth-users/AuthMfaPage'
export { AuthRateLimitsPage } from '../../features/auth-users/AuthRateLimitsPage'
export { AuthSmtpPage } from '../../features/auth-users/AuthSmtpPage'
