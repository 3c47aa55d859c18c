// The timer's soft sound at zero (WebAudio), and where this browser keeps it muted.

export const MUTE_KEY = 'tandem:timer-muted';

export function softChime(): void {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = 'sine';
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.08, audio.currentTime + 0.05);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.9);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 1);
    tone.onended = () => void audio.close();
  } catch {
    // No audio here (autoplay policy, no device): the flash still shows.
  }
}
