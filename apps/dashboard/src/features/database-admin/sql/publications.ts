import { checkedName, qualified, type TableName } from './names'

export const PUBLICATION_EVENTS = ['insert', 'update', 'delete', 'truncate'] as const
export type PublicationEvent = (typeof PUBLICATION_EVENTS)[number]

/** The events a publication sends; none at all is allowed (it then publishes nothing). */
export function buildSetPublicationEvents(publication: string, events: readonly PublicationEvent[]): string {
  const known = PUBLICATION_EVENTS.filter((event) => events.includes(event))
  return `ALTER PUBLICATION ${checkedName(publication, 'The publication name')} SET (publish = '${known.join(', ')}');`
}

/** Adds a table to a publication (its changes are then sent), or takes it out. */
export function buildSetPublicationTable(publication: string, table: TableName, included: boolean): string {
  return `ALTER PUBLICATION ${checkedName(publication, 'The publication name')} ${included ? 'ADD' : 'DROP'} TABLE ${qualified(table)};`
}
