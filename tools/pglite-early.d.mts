export function beginPgliteStart(template: string, env?: Record<string, string | undefined>): void;
