/** What other features use from the projects feature. */
export { DatabasePasswordField } from './DatabasePasswordField'
export { generatePassword } from './generatePassword'
