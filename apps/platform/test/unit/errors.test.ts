import { describe, expect, it } from 'vitest'
import { CreateProjectBody } from '@stratum/contracts'
import Fastify from 'fastify'
import { OperationConflictError } from '../../src/control/operations/runner.js'
import { DomainError, parse, type DomainErrorKind } from '../../src/errors.js'
import { errorHandler, STATUS_OF } from '../../src/http/errors.js'

describe('parse', () => {
  it('turns a validation failure into a 400 that names the problem', () => {
    try {
      parse(CreateProjectBody, { name: 'x', organization_slug: 'acme', db_pass: 'short' })
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError)
      expect((error as DomainError).kind).toBe('invalid-input')
      expect((error as DomainError).message).toBe('Database password must be at least 8 characters')
    }
  })

  it('names the field when the message does not', () => {
    expect(() => parse(CreateProjectBody, { name: 'x', organization_slug: 'acme' })).toThrow(/Database password is required/)
    expect(() => parse(CreateProjectBody, { name: 'x', organization_slug: 'a b', db_pass: '12345678' })).toThrow(/slug/)
  })
})

describe('errorHandler', () => {
  async function answerTo(error: Error): Promise<{ status: number; body: unknown }> {
    const app = Fastify({ logger: false })
    app.setErrorHandler(errorHandler)
    app.get('/', async () => {
      throw error
    })
    const response = await app.inject({ method: 'GET', url: '/' })
    await app.close()
    return { status: response.statusCode, body: response.json() }
  }

  it('answers every kind of domain error with its status and the message', async () => {
    const kinds = Object.keys(STATUS_OF) as DomainErrorKind[]
    for (const kind of kinds) {
      expect(await answerTo(new DomainError(kind, `a ${kind} error`))).toEqual({ status: STATUS_OF[kind], body: { message: `a ${kind} error` } })
    }
    expect(new Set(kinds.map((kind) => STATUS_OF[kind])).size).toBe(kinds.length)
  })

  it('maps the domain modules\' own errors through their kind: another operation running is a 409', async () => {
    expect(await answerTo(new OperationConflictError('Another operation is running'))).toEqual({ status: 409, body: { message: 'Another operation is running' } })
  })

  it('answers anything else as a 500 without its text', async () => {
    expect(await answerTo(new Error('password=secret at /var/lib'))).toEqual({ status: 500, body: { message: 'Internal server error' } })
  })
})
