// The ALTCHA widget as a file of its own (dist/altcha-widget.js): the contact page's script imports it only when the
// server checks ALTCHA, as the app's AltchaCaptcha imports "altcha".
import "altcha";
