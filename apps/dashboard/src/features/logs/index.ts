export { LogsExplorerPage } from './LogsExplorerPage'
