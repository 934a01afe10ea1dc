/** reported in health; keep in step with package.json */
export const AGENT_VERSION = '0.2.0';
