import { quoteIdentifier } from '@stratum/sql'
import { checkedName, ObjectInputError, qualified, type ObjectName } from './input'

export const TRIGGER_EVENTS = ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] as const
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number]
export const TRIGGER_TIMINGS = ['BEFORE', 'AFTER'] as const
export type TriggerTiming = (typeof TRIGGER_TIMINGS)[number]
export type TriggerOrientation = 'ROW' | 'STATEMENT'

export interface TriggerSpec {
  name: string
  table: ObjectName
  function: ObjectName
  events: readonly TriggerEvent[]
  timing: TriggerTiming
  orientation: TriggerOrientation
}

/** CREATE TRIGGER: the events in a fixed order, the function called with no arguments. */
export function buildCreateTrigger(spec: TriggerSpec): string {
  checkedName(spec.name, 'Name')
  checkedName(spec.table.name, 'Table')
  checkedName(spec.function.name, 'Function')
  const events = TRIGGER_EVENTS.filter((event) => spec.events.includes(event))
  if (events.length === 0) throw new ObjectInputError('Choose at least one event')
  if (!(TRIGGER_TIMINGS as readonly string[]).includes(spec.timing)) throw new ObjectInputError(`Unknown timing ${spec.timing}`)
  if (spec.orientation !== 'ROW' && spec.orientation !== 'STATEMENT') throw new ObjectInputError(`Unknown orientation ${spec.orientation}`)
  // Postgres refuses a row-level TRUNCATE trigger: say so before the SQL is shown.
  if (spec.orientation === 'ROW' && events.includes('TRUNCATE')) throw new ObjectInputError('TRUNCATE triggers fire once per statement: choose Statement')
  return [
    `CREATE TRIGGER ${quoteIdentifier(spec.name)}`,
    `${spec.timing} ${events.join(' OR ')} ON ${qualified(spec.table)}`,
    `FOR EACH ${spec.orientation}`,
    `EXECUTE FUNCTION ${qualified(spec.function)}();`,
  ].join('\n')
}

export function buildSetTriggerEnabled(trigger: { name: string; schema: string; table: string }, enabled: boolean): string {
  return `ALTER TABLE ${qualified({ schema: trigger.schema, name: trigger.table })} ${enabled ? 'ENABLE' : 'DISABLE'} TRIGGER ${quoteIdentifier(trigger.name)};`
}

export function buildDropTrigger(trigger: { name: string; schema: string; table: string }): string {
  return `DROP TRIGGER ${quoteIdentifier(trigger.name)} ON ${qualified({ schema: trigger.schema, name: trigger.table })};`
}
