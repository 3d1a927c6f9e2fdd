import { describe, expect, it } from 'vitest'
import { CreateProjectBody, passwordStrength, V1CreateProjectBody } from '../src/index.js'

describe('passwordStrength', () => {
  it('grades by length first, then variety', () => {
    expect(passwordStrength('abc').score).toBe(0)
    expect(passwordStrength('abcdefgh').label).toBe('Weak')
    expect(passwordStrength('abcdefghijkl').label).toBe('Fair')
    expect(passwordStrength('Abcdefghijk1').label).toBe('Good')
    expect(passwordStrength('Abcdefghijklmnop-1').label).toBe('Strong')
  })
})

describe('project bodies', () => {
  it('defaults nothing and trims the name on the platform body', () => {
    const parsed = CreateProjectBody.parse({ name: '  Shop ', organization_slug: 'acme', db_pass: '12345678' })
    expect(parsed).toEqual({ name: 'Shop', organization_slug: 'acme', db_pass: '12345678' })
  })

  it('follows the Management API document: unknown fields and unavailable engines are refused', () => {
    const base = { name: 'x', organization_slug: 'acme', db_pass: '12345678' }
    expect(V1CreateProjectBody.safeParse({ ...base, extra: 1 }).success).toBe(false)
    expect(V1CreateProjectBody.safeParse({ ...base, postgres_engine: '17-oriole' }).success).toBe(false)
    expect(V1CreateProjectBody.safeParse({ ...base, postgres_engine: '15' }).success).toBe(true)
    expect(V1CreateProjectBody.safeParse({ ...base, region: 'us-east-1', region_selection: { type: 'specific', code: 'us-east-1' } }).success).toBe(false)
  })
})
