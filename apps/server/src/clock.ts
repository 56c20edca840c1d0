/** Returns the current time; injected so tests can move time without fake timers. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
