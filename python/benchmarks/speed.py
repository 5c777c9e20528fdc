"""Random-playout speed on Connect Four: a Python loop over legal_actions /
apply_action against one batched call that stays in Rust. Optionally the same
Python loop over OpenSpiel's pyspiel, when it is installed in this interpreter.

    python python/benchmarks/speed.py [games]

Prints one line per measurement (games/s and actions/s, best of 3 repetitions).
"""

import random
import sys
import time

import boardlab


def best_of(reps, f):
    best = None
    for _ in range(reps):
        t = time.perf_counter()
        actions = f()
        dt = time.perf_counter() - t
        best = dt if best is None or dt < best else best
    return best, actions


def python_loop(game, games, seed=0):
    rng = random.Random(seed)
    actions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions


def report(name, games, dt, actions):
    print(f"{name:<32} {games / dt:>12,.0f} games/s {actions / dt:>14,.0f} actions/s")


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    game = boardlab.load_game("connect4")
    dt, actions = best_of(3, lambda: python_loop(game, games))
    report("boardlab, Python loop", games, dt, actions)
    batch = games * 50
    dt, actions = best_of(3, lambda: boardlab.random_playouts("connect4", batch))
    report("boardlab, batched in Rust", batch, dt, actions)
    try:
        import pyspiel
    except ImportError:
        print("pyspiel not installed: no OpenSpiel comparison")
        return
    sgame = pyspiel.load_game("connect_four")
    dt, actions = best_of(3, lambda: python_loop(sgame, games))
    report("pyspiel, Python loop", games, dt, actions)


if __name__ == "__main__":
    main()
