// Loaded on demand: the security and performance advisors.
export { AdvisorsPage } from '../../features/advisors'
