export { ResourceWarningBanner } from './ResourceWarningBanner'
export { alertOf, bannerVisible, MESSAGES } from './messages'
