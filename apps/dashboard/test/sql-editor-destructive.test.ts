import { findDestructiveOperations } from '@stratum/sql'
import { describe, expect, it } from 'vitest'
import { inSection, searchSection } from '../src/data/content/snippetSection'
import { describeDestructive } from '../src/features/sql-editor/destructiveText'

const lines = (sql: string) => findDestructiveOperations(sql).map(describeDestructive)

describe('the destructive warning names the statement, the table and what happens', () => {
  it.each([
    ['delete from public.orders', { statement: 'DELETE without a WHERE clause', target: 'public.orders', effect: 'deletes every row of the table' }],
    ['delete from orders where id = 1', { statement: 'DELETE', target: 'orders', effect: 'deletes the rows it matches' }],
    ['drop table orders, "Line Items"', { statement: 'DROP TABLE', target: 'orders, "Line Items"', effect: 'removes it and everything stored in it' }],
    ['drop policy if exists p on orders', { statement: 'DROP POLICY', target: 'p', effect: 'removes it' }],
    ['truncate orders', { statement: 'TRUNCATE', target: 'orders', effect: 'deletes every row of the table' }],
    ['alter table orders drop column note', { statement: 'ALTER TABLE ... DROP COLUMN note', target: 'orders', effect: 'removes the column and its values in every row' }],
    ['update orders set note = null', { statement: 'UPDATE without a WHERE clause', target: 'orders', effect: 'changes every row of the table' }],
  ])('%s', (sql, expected) => {
    expect(lines(sql)).toEqual([expected])
  })
})

describe('a search section holds what the server would match', () => {
  const base = { favorite: false, visibility: 'user' as const, folder_id: null }
  it('by name or SQL, case-insensitively; a listing without SQL keeps the server answer', () => {
    const section = searchSection('Orders')
    expect(inSection(section, { ...base, name: 'Weekly orders', content: { sql: 'select 1' } })).toBe(true)
    expect(inSection(section, { ...base, name: 'Weekly', content: { sql: 'select * from ORDERS' } })).toBe(true)
    expect(inSection(section, { ...base, name: 'Weekly', content: { sql: 'select 1' } })).toBe(false)
    expect(inSection(section, { ...base, name: 'Weekly' })).toBe(true)
  })
})
