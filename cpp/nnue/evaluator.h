// The network's evaluation of positions, one accumulator per perspective kept up to date.
//
// The evaluator remembers the board and the controllers of the last position it evaluated,
// with its accumulators. Evaluating the next one compares the boards cell by cell and
// updates the accumulators by the pieces that changed: the difference between two positions
// a search visits one after the other is a few cells (a move, or a move taken back and a
// sibling played), whatever happened in between, so moves, castling, en passant, promotions,
// and the events the game layer applies (a king removed) need no hook in make() and unmake(),
// and counting positions (perft) pays nothing for the network. A change of controller (a
// mated army passing to its mater, an army left dead) changes every feature of that army for
// every perspective: the accumulators are then computed afresh, as they are when too many
// cells changed for updates to be cheaper. With king buckets, a perspective whose king moved
// into another bucket reads every piece through other weights: his accumulator alone is
// computed afresh.
//
// A network on the classic evaluation has the classic evaluation's values added to its own.
//
// Nothing is allocated per evaluation. One evaluator per thread: it is not shared.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include "core/evaluate.h"
#include "core/position.h"
#include "nnue/network.h"
#include "nnue/simd.h"

namespace polychess {

template <int W>
class NetworkEvaluator {
 public:
  using Values = std::array<int, MAX_PLAYERS>;

  // Throws InvalidNetwork unless `network` is one of the variant's; the evaluator keeps a
  // reference to `network`, which must outlive it.
  NetworkEvaluator(const Network& network, const Variant& variant)
      : net_(network), features_(feature_set(variant, network.buckets)), hidden_(network.hidden) {
    network.check_game(variant);
    acc_.assign(size_t(features_.players) * hidden_, 0);
  }

  // Every player's value of the position, in centipawns, from his own perspective (a player
  // out gets a value too; the search does not count it).
  Values evaluate(const Position<W>& pos) {
    update(pos);
    return output(pos);
  }

  // The accumulators computed afresh (what updates must always equal).
  Values evaluate_afresh(const Position<W>& pos) {
    refresh(pos);
    return output(pos);
  }

  // Refreshes after this many changed cells: beyond it, one pass over the pieces is cheaper.
  static constexpr int MAX_UPDATED_CELLS = 12;

  uint64_t refreshes() const { return refreshes_; }
  uint64_t updates() const { return updates_; }

 private:
  int16_t* acc(int perspective) { return acc_.data() + size_t(perspective) * hidden_; }
  const int16_t* row(int feature) const { return net_.ft_weight.data() + size_t(feature) * hidden_; }

  void remember(const Position<W>& pos) {
    for (int cell = 0; cell < features_.cells; ++cell) board_[cell] = pos.piece_at(cell);
    std::memcpy(controller_, pos.meta().controller, sizeof controller_);
    valid_ = true;
  }

  int bucket_of(const Position<W>& pos, int perspective) const {
    return features_.buckets == 1 ? 0 : features_.bucket(perspective, pos.king_of(perspective));
  }

  void refresh(const Position<W>& pos) {
    ++refreshes_;
    for (int p = 0; p < features_.players; ++p) refresh_perspective(pos, p);
    remember(pos);
  }

  void refresh_perspective(const Position<W>& pos, int p) {
    const uint8_t* controller = pos.meta().controller;
    const int bucket = bucket_[p] = bucket_of(pos, p);
    int16_t* a = acc(p);
    std::copy(net_.ft_bias.begin(), net_.ft_bias.end(), a);
    for (int cell = 0; cell < features_.cells; ++cell) {
      const Piece piece = pos.piece_at(cell);
      if (piece == NO_PIECE) continue;
      add(a, row(features_.index(p, bucket, cell, kind_of(piece), controller[colour_of(piece)])));
    }
  }

  void update(const Position<W>& pos) {
    // (colours past the variant's hold NOBODY in every position, so they compare equal)
    if (!valid_ || std::memcmp(controller_, pos.meta().controller, sizeof controller_) != 0) return refresh(pos);
    int changed[MAX_UPDATED_CELLS];
    int n = 0;
    for (int cell = 0; cell < features_.cells; ++cell) {
      if (board_[cell] == pos.piece_at(cell)) continue;
      if (n == MAX_UPDATED_CELLS) return refresh(pos);
      changed[n++] = cell;
    }
    if (n == 0) return;
    ++updates_;
    const uint8_t* controller = pos.meta().controller;
    for (int p = 0; p < features_.players; ++p) {
      const int bucket = bucket_[p];
      if (bucket_of(pos, p) != bucket) {
        refresh_perspective(pos, p);
        continue;
      }
      int16_t* a = acc(p);
      for (int i = 0; i < n; ++i) {
        const int cell = changed[i];
        const Piece before = board_[cell], now = pos.piece_at(cell);
        if (before != NO_PIECE)
          subtract(a, row(features_.index(p, bucket, cell, kind_of(before), controller[colour_of(before)])));
        if (now != NO_PIECE) add(a, row(features_.index(p, bucket, cell, kind_of(now), controller[colour_of(now)])));
      }
    }
    for (int i = 0; i < n; ++i) board_[changed[i]] = pos.piece_at(changed[i]);
  }

  void add(int16_t* a, const int16_t* w) const { simd::accumulate<+1>(a, w, hidden_); }
  void subtract(int16_t* a, const int16_t* w) const { simd::accumulate<-1>(a, w, hidden_); }

  // v_p = (b2[t] + w2[t] . [crelu(acc_p), crelu(acc_p+1), ...]) * scale / (qa * qb), t the
  // turn counted from p (network.h).
  Values output(const Position<W>& pos) {
    Values v{};
    if (net_.on_classic) {
      if (!classic_) classic_ = &eval_tables(pos.topo());
      v = evaluate_players(pos, *classic_);
    }
    const int turn = pos.turn();
    const int n = features_.players;
    const size_t row_size = size_t(n) * hidden_;
    for (int p = 0; p < n; ++p) {
      const int bucket = (turn - p + n) % n;
      const int16_t* w = net_.out_weight.data() + bucket * row_size;
      int32_t sum = net_.out_bias[bucket];
      for (int j = 0; j < n; ++j) {
        const int16_t* a = acc_.data() + size_t((p + j) % n) * hidden_;
        const int16_t* wj = w + size_t(j) * hidden_;
        sum += simd::clipped_dot(a, wj, hidden_, int16_t(net_.qa));
      }
      v[p] += int(int64_t(sum) * net_.scale / (int64_t(net_.qa) * net_.qb));
    }
    return v;
  }

  const Network& net_;
  const FeatureSet features_;
  const int hidden_;
  std::vector<int16_t> acc_;  // [perspective][hidden]
  Piece board_[MAX_CELLS] = {};
  uint8_t controller_[MAX_COLOURS] = {};
  int bucket_[MAX_PLAYERS] = {};  // each perspective's king bucket in the remembered position
  bool valid_ = false;
  const EvalTables<W>* classic_ = nullptr;  // for a network on the classic evaluation
  uint64_t refreshes_ = 0, updates_ = 0;
};

}  // namespace polychess
