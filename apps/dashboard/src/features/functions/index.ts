// What other features use of edge functions: the deploy texts and URLs (the assistant's function blocks).
export { downloadCommand, functionUrl, FUNCTION_TEXTS } from './texts'
