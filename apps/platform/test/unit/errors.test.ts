import { describe, expect, it } from 'vitest'
import { CreateProjectBody } from '@stratum/contracts'
import { HttpError, parse } from '../../src/http/errors.js'

describe('parse', () => {
  it('turns a validation failure into a 400 that names the problem', () => {
    try {
      parse(CreateProjectBody, { name: 'x', organization_slug: 'acme', db_pass: 'short' })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError)
      expect((error as HttpError).statusCode).toBe(400)
      expect((error as HttpError).message).toBe('Database password must be at least 8 characters')
    }
  })

  it('names the field when the message does not', () => {
    expect(() => parse(CreateProjectBody, { name: 'x', organization_slug: 'acme' })).toThrow(/Database password is required/)
    expect(() => parse(CreateProjectBody, { name: 'x', organization_slug: 'a b', db_pass: '12345678' })).toThrow(/slug/)
  })
})
