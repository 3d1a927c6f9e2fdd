export { AdvisorsPage } from './AdvisorsPage'
