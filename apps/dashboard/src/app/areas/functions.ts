// Loaded on demand: edge functions (list, deploy, details).
export { FunctionsPage } from '../../features/functions/FunctionsPage'
export { FunctionDetailsPage } from '../../features/functions/FunctionDetailsPage'
