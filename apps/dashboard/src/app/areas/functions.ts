// Loaded on demand: edge functions (list, deploy, details, secrets).
export { FunctionsPage } from '../../features/functions/FunctionsPage'
export { FunctionDetailsPage } from '../../features/functions/FunctionDetailsPage'
export { FunctionSecretsPage } from '../../features/functions/FunctionSecretsPage'
