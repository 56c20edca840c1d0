import { useCallback, useEffect, useState } from "react";

export type SpeechLanguage = "sv" | "en";

const preferredLanguageTags: Record<SpeechLanguage, string[]> = { sv: ["sv-SE", "sv"], en: ["en-GB", "en-US", "en"] };

/** The best voice for a language among the browser's: the preferred regional one first, then any of the language. */
export function pickVoice(voices: readonly SpeechSynthesisVoice[], language: SpeechLanguage): SpeechSynthesisVoice | undefined {
  for (const tag of preferredLanguageTags[language]) {
    const voice = voices.find((candidate) => candidate.lang.replace("_", "-").toLowerCase() === tag.toLowerCase());
    if (voice) return voice;
  }
  return voices.find((candidate) => candidate.lang.toLowerCase().startsWith(`${language}`));
}

/**
 * Read-aloud with the browser's speech synthesis: which languages have a voice (none: the buttons stay hidden), and a
 * `speak` that stops whatever was being read first.
 */
export function useReadAloud() {
  const [voices, setVoices] = useState<SpeechSynthesisVoice[]>([]);
  useEffect(() => {
    if (typeof window === "undefined" || !("speechSynthesis" in window)) return;
    const load = () => setVoices(window.speechSynthesis.getVoices());
    load();
    window.speechSynthesis.addEventListener("voiceschanged", load);
    return () => {
      window.speechSynthesis.removeEventListener("voiceschanged", load);
      window.speechSynthesis.cancel();
    };
  }, []);
  const voiceFor = useCallback((language: SpeechLanguage) => pickVoice(voices, language), [voices]);
  const speak = useCallback(
    (text: string, language: SpeechLanguage) => {
      const voice = voiceFor(language);
      if (!voice) return;
      window.speechSynthesis.cancel();
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.voice = voice;
      utterance.lang = voice.lang;
      window.speechSynthesis.speak(utterance);
    },
    [voiceFor],
  );
  return { canSpeak: (language: SpeechLanguage) => voiceFor(language) !== undefined, speak };
}
