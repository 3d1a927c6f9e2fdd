/**
 * A failed upgrade in plain words. The operation records why it failed as '<step>: <message>' (runner.ts);
 * the Management API's error codes (contracts/values/upgrade.ts, misspellings included, as its clients
 * expect them) say only where it stopped, so the upgrade status answers this sentence beside the code and
 * the failure screen shows it instead of the code.
 */
const STEP_FAILURES: Record<string, string> = {
  'start': 'The upgrade could not start',
  'launch-new-server': 'The new database server could not be prepared',
  'pre-upgrade-checks': 'The pre-upgrade checks found a problem',
  'stop-writes': 'Writes to the database could not be paused for the migration',
  'migrate-data': 'Your data could not be copied to the new database server',
  'update-extensions': 'The database extensions could not be updated',
  'optimize': 'The new database could not be optimized',
  'switch-over': 'The switch to the new database server failed',
  'post-backup': 'The upgrade completed, but the full backup after it failed',
}

export function upgradeFailureMessage(recorded: string | null): string {
  if (!recorded) return 'The upgrade failed without a recorded reason.'
  const colon = recorded.indexOf(': ')
  const step = colon > 0 ? recorded.slice(0, colon) : ''
  const what = STEP_FAILURES[step]
  if (!what) return sentence(recorded)
  return `${what}: ${sentence(recorded.slice(colon + 2))}`
}

const sentence = (text: string) => (/[.!?;]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`)
