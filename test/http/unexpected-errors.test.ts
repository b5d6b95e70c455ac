import { describe, expect, it, vi } from 'vitest';

// Stand-in for a bug deep in the adapter: the JSON solver throws something that is not a ClientError.
vi.mock('../../functions/http/solve-json.js', () => ({
  solveJsonBody: () => {
    throw new TypeError('a bug');
  },
}));

const { handler } = await import('../../functions/handler/index.js');
const { logger } = await import('../../functions/observability/powertools.js');
const { buildHttpApiEvent } = await import('../../twin/gateway/http-api-event.js');
const { createLambdaContext } = await import('../../twin/lambda/lambda-context.js');

describe('an unexpected error inside the HTTP adapter', () => {
  it('becomes a logged 500 problem+json with the request id, not an exception', async () => {
    const error = vi.spyOn(logger, 'error');
    const event = buildHttpApiEvent({
      method: 'POST',
      url: '/solve',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const result = (await handler(event, createLambdaContext())) as {
      statusCode: number;
      headers: Record<string, string>;
      body: string;
    };
    expect(result.statusCode).toBe(500);
    expect(result.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(result.body)).toMatchObject({
      status: 500,
      type: expect.stringContaining('internal-error'),
      requestId: event.requestContext.requestId,
    });
    expect(result.body).not.toContain('a bug');
    expect(error).toHaveBeenCalledWith(
      expect.stringContaining('Unexpected error'),
      expect.objectContaining({ error: expect.any(TypeError) }),
    );
  });
});
