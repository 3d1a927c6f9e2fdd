/** Texts of the Vault page. */
export const VAULT_TEXTS = {
  writePermission: 'You need additional permissions to manage Vault secrets',
  revealPermission: 'You need additional permissions to reveal Vault secrets',
  notRunning: 'Secrets are kept in the project database: restore or restart the project to manage them.',
  added: 'Successfully added new secret',
  updated: 'Successfully updated secret',
  deleted: 'Successfully deleted secret',
} as const
