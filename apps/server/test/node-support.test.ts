/** Which Node.js versions the server accepts (apps/server/src/db/node-support.ts; issue 29). */
import { describe, expect, it } from 'vitest';
import { unsupportedNode } from '../src/db/node-support';

describe('the Node.js versions the server runs on', () => {
  it.each(['22.14.0', '22.23.3', '23.0.0', '24.0.0', '24.19.0', '24.21.0', '26.12.1'])('accepts %s', (version) => {
    expect(unsupportedNode(version)).toBeNull();
  });

  it.each(['20.20.2', '20.19.0', '21.7.3', '22.13.1', '22.0.0', '18.20.8'])('refuses %s with a sentence naming it and what to do', (version) => {
    const refusal = unsupportedNode(version);
    expect(refusal).toContain(`needs Node.js 22.14 or later (22 or 24 LTS); this is Node.js ${version}.`);
    expect(refusal).toContain('npm ci installed');
  });

  it('accepts the Node.js these tests run on (npm runs them on a supported one)', () => {
    expect(unsupportedNode()).toBeNull();
  });
});
