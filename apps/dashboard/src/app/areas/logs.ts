// Loaded on demand: the Logs Explorer.
export { LogsExplorerPage } from '../../features/logs'
