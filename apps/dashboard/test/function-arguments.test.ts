import { describe, expect, it } from 'vitest'
import { argumentsOfFunction, renderArguments, type FunctionArgument } from '../src/features/database-objects/sql/function-arguments'
import { buildSaveFunction } from '../src/features/database-objects/sql/functions'
import { ObjectInputError } from '../src/features/database-objects/sql/input'

const row = (change: Partial<FunctionArgument>): FunctionArgument => ({ mode: 'IN', name: '', type: 'text', defaultValue: '', ...change })

describe("a function's arguments as rows", () => {
  it('renders modes, quoted names, types and defaults', () => {
    const sql = renderArguments([
      row({ name: 'user_id', type: 'uuid' }),
      row({ name: 'Amount', type: 'numeric(10, 2)', defaultValue: '0' }),
      row({ mode: 'OUT', name: 'total', type: 'bigint' }),
      row({ mode: 'VARIADIC', name: 'tags', type: 'text[]' }),
      row({ type: 'double precision' }),
    ])
    expect(sql).toBe('"user_id" uuid, "Amount" numeric(10, 2) DEFAULT 0, OUT "total" bigint, VARIADIC "tags" text[], double precision')
  })

  it('refuses a row without a type and a default on an OUT argument', () => {
    expect(() => renderArguments([row({ name: 'a', type: ' ' })])).toThrow(new ObjectInputError('Argument 1 (a) needs a type'))
    expect(() => renderArguments([row({ mode: 'OUT', name: 'b', defaultValue: '1' })])).toThrow(ObjectInputError)
  })

  it('keeps a hostile name inside its quotes; a hostile type is refused by the list check', () => {
    const hostile = renderArguments([row({ name: 'x"; drop table users; --', type: 'text' })])
    expect(hostile).toBe('"x""; drop table users; --" text')
    const spec = { schema: 'public', name: 'f', returns: 'void', language: 'sql', body: 'select 1', securityDefiner: false, behavior: 'VOLATILE' as const, searchPath: '' }
    expect(() => buildSaveFunction({ ...spec, args: renderArguments([row({ name: 'a', type: 'text); drop table users; --' })]) }, undefined)).toThrow(ObjectInputError)
  })

  it('reads an existing function back into rows from its printed list and postgres-meta args', () => {
    const printed = `user_id uuid, "Amount" numeric DEFAULT (0)::numeric, OUT total bigint, VARIADIC tags text[] DEFAULT '{a,"b, c"}'::text[]`
    const args = [
      { mode: 'in' as const, name: 'user_id', type_id: 2950, has_default: false },
      { mode: 'in' as const, name: 'Amount', type_id: 1700, has_default: true },
      { mode: 'out' as const, name: 'total', type_id: 20, has_default: null },
      { mode: 'variadic' as const, name: 'tags', type_id: 1009, has_default: true },
    ]
    expect(argumentsOfFunction(printed, args)).toEqual([
      row({ name: 'user_id', type: 'uuid' }),
      row({ name: 'Amount', type: 'numeric', defaultValue: '(0)::numeric' }),
      row({ mode: 'OUT', name: 'total', type: 'bigint' }),
      row({ mode: 'VARIADIC', name: 'tags', type: 'text[]', defaultValue: `'{a,"b, c"}'::text[]` }),
    ])
  })

  it('reads unnamed arguments and multi-word types; TABLE columns are not arguments', () => {
    const args = [
      { mode: 'in' as const, name: '', type_id: 701, has_default: false },
      { mode: 'in' as const, name: 'at', type_id: 1184, has_default: false },
      { mode: 'table' as const, name: 'n', type_id: 23, has_default: null },
    ]
    expect(argumentsOfFunction('double precision, at timestamp with time zone', args)).toEqual([
      row({ type: 'double precision' }),
      row({ name: 'at', type: 'timestamp with time zone' }),
    ])
    expect(argumentsOfFunction('', [])).toEqual([])
  })

  it('gives up (the form edits the list as text) when the two descriptions disagree', () => {
    expect(argumentsOfFunction('a integer, b text', [{ mode: 'in', name: 'a', type_id: 23, has_default: false }])).toBeUndefined()
    expect(argumentsOfFunction('x integer', [{ mode: 'in', name: 'a', type_id: 23, has_default: false }])).toBeUndefined()
  })
})
