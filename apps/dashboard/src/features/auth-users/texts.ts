/** Texts of the Authentication pages. */
export const AUTH_TEXTS = {
  writePermission: 'You need additional permissions to manage users',
  outboxPermission: 'You need additional permissions to read the outbox: its links sign in as the users they were sent to',
  settingsPermission: 'You need additional permissions to change the auth settings',
  notRunning: 'Users are kept in the project database: restore or restart the project to manage them.',
} as const
