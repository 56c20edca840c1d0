/** Spec §5 and §8: shown under the captcha once the visitor typed, and as the form's error when sent without it. */
export const CAPTCHA_REQUIRED_MESSAGE = "Please complete the captcha verification";

/** In the captcha's place until the server said which captcha to show and its code is there. */
export const CAPTCHA_PREPARING_MESSAGE = "Preparing the spam check…";

/** When the server's settings (which captcha) could not be read: nothing could be sent. */
export const CAPTCHA_UNAVAILABLE_MESSAGE = "The spam check could not be loaded. Please reload the page, or phone us.";

/** The submit button's label, and while a message is on its way (spec §4). */
export const SEND_BUTTON_LABEL = "Send";
export const SENDING_BUTTON_LABEL = "Sending...";
