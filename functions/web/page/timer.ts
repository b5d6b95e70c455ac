import { $ } from './dom.js';
import { state } from './state.js';

export function resetTimer(): void {
  clearInterval(state.timerHandle);
  state.timerHandle = 0;
  state.timerStart = 0;
  state.elapsed = 0;
  showTime();
}

export function startTimer(): void {
  if (state.mode !== 'play' || state.timerHandle) return;
  state.timerStart = Date.now() - state.elapsed * 1000;
  state.timerHandle = window.setInterval(() => {
    state.elapsed = Math.floor((Date.now() - state.timerStart) / 1000);
    showTime();
  }, 1000);
}

export function stopTimer(): void {
  clearInterval(state.timerHandle);
  state.timerHandle = 0;
}

export function showTime(): void {
  $('timer').textContent = `${Math.floor(state.elapsed / 60)}:${String(state.elapsed % 60).padStart(2, '0')}`;
}
