export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __postgres?: { stop(): Promise<void> } }).__postgres?.stop();
}
