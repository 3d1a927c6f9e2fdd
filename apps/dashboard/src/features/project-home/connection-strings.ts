import type { Project } from '@stratum/contracts'

/** Single-quote a value for a POSIX shell unless it is plainly safe. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`
}

export function psqlCommand({ db_host: host, db_port: port, db_user: user, db_name: database }: Project): string {
  return `psql -h ${shellQuote(host)} -p ${port} -U ${shellQuote(user)} -d ${shellQuote(database)}`
}

/** The URI with a placeholder where the password goes: the dashboard never shows it. */
export function connectionUri({ db_host: host, db_port: port, db_user: user, db_name: database }: Project): string {
  return `postgresql://${encodeURIComponent(user)}:[YOUR-PASSWORD]@${host}:${port}/${encodeURIComponent(database)}`
}
