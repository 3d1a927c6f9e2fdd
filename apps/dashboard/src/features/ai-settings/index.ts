export { AiSettingsPage } from './AiSettingsPage'
