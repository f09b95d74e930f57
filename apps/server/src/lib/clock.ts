/** The current time, passed in so that services can be tested at any date. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
