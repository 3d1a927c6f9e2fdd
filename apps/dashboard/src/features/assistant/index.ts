// The AI assistant of the right panel (loaded on demand by the shell).
export { AssistantPanel } from './AssistantPanel'
