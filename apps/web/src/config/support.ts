/** Contact details shown in the About box. The phone number is a placeholder until support is staffed. */
export const SUPPORT_EMAIL = 'support@accord.test';
export const SUPPORT_PHONE = 'to be announced';
