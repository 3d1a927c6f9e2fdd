export { InfrastructurePage } from './InfrastructurePage'
