import { describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/handler/index.js';
import { buildHttpApiEvent } from '../../twin/gateway/http-api-event.js';
import { createLambdaContext } from '../../twin/lambda/lambda-context.js';
import { METRIC } from '../../functions/contract/service-layout.js';
import { metrics } from '../../functions/observability/powertools.js';
import { DUPLICATE, EASY, NO_SOLUTION } from '../helpers/boards.js';

async function solve(
  body: string,
  contentType = 'application/json',
  context = createLambdaContext(),
): Promise<Map<string, number>> {
  const added = new Map<string, number>();
  const spy = vi.spyOn(metrics, 'addMetric').mockImplementation((name: string, _unit, value: number) => {
    added.set(name, (added.get(name) ?? 0) + value);
    return undefined as never;
  });
  await handler(
    buildHttpApiEvent({ method: 'POST', url: '/solve', headers: { 'content-type': contentType }, body }),
    context,
  );
  spy.mockRestore();
  return added;
}

describe('metrics of the HTTP adapter', () => {
  it('counts solved and failed boards of a batch, and records their summed solve time', async () => {
    const added = await solve(JSON.stringify({ boards: [EASY, DUPLICATE, EASY, NO_SOLUTION] }));
    expect(added.get(METRIC.boardsSolved)).toBe(2);
    expect(added.get(METRIC.boardsFailed)).toBe(2);
    expect(added.get(METRIC.solveTime)).toBeGreaterThanOrEqual(0);
  });

  it('counts a failed single board as failed, and text lines one by one', async () => {
    expect((await solve(JSON.stringify({ board: NO_SOLUTION }))).get(METRIC.boardsFailed)).toBe(1);
    const lines = await solve(`${EASY}\n\nxyz\n`, 'text/plain');
    expect([lines.get(METRIC.boardsSolved), lines.get(METRIC.boardsFailed)]).toEqual([1, 1]);
  });

  it('still counts the boards solved before the time budget stopped a batch', async () => {
    const nearlyOut = createLambdaContext({ timeoutMs: 1000 });
    expect(
      (await solve(JSON.stringify({ boards: [EASY, EASY, EASY] }), 'application/json', nearlyOut)).get(
        METRIC.boardsSolved,
      ),
    ).toBe(1);
    expect((await solve(`${EASY}\n${EASY}\n`, 'text/plain', nearlyOut)).get(METRIC.boardsSolved)).toBe(1);
  });

  it('records nothing for requests that solve no board', async () => {
    expect((await solve('{"board":')).size).toBe(0);
  });
});
