import { describe, expect, it } from 'vitest';
import { parseAgentConfig } from '../config/agent-config';
import { effectiveSenderSettings } from './agent';

/**
 * The server's `configure` (docs/security.md, 'Door agent faults') may lower the agent's batch size
 * and backoff cap, never raise them past what the operator set on the box
 * (ROLLCALL_AGENT_RETRY_MAX_SECONDS, ROLLCALL_AGENT_BATCH_MAX): before, the server's
 * retry_max_seconds replaced the local cap.
 */
describe('the server configuration against the local caps', () => {
  const local = (env: Record<string, string>) => {
    const parsed = parseAgentConfig({ ROLLCALL_AGENT_SERVER_URL: 'https://rollcall.example.com', ROLLCALL_AGENT_READER_ID: 'r1', ROLLCALL_AGENT_TOKEN: 'rcr_x', ...env });
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    return parsed.config;
  };

  it("keeps the operator's lower retry cap when the server sends a higher one", () => {
    expect(effectiveSenderSettings({ batch_max: 500, retry_max_seconds: 3600 }, local({ ROLLCALL_AGENT_RETRY_MAX_SECONDS: '5' }))).toEqual({ batchMax: 500, retryMaxMs: 5000 });
  });

  it("takes the server's lower values", () => {
    expect(effectiveSenderSettings({ batch_max: 50, retry_max_seconds: 2 }, local({ ROLLCALL_AGENT_RETRY_MAX_SECONDS: '30', ROLLCALL_AGENT_BATCH_MAX: '800' }))).toEqual({ batchMax: 50, retryMaxMs: 2000 });
  });
});
