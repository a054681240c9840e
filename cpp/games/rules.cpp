#include "games/rules.h"

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/errors.h"

namespace polychess {
namespace {

// The words of each choice, in the enum's order: polychess.rules' words, "-" for a space.
std::vector<std::string> words_of(Army) { return {"passes", "dead"}; }
std::vector<std::string> words_of(MateJudged) { return {"at-turn", "after-move"}; }
std::vector<std::string> words_of(StalemateEffect) { return {"freeze", "out", "draw"}; }
std::vector<std::string> words_of(Ranking) { return {"order-out", "points"}; }
std::vector<std::string> words_of(Insufficient) { return {"never", "bare-kings", "fide"}; }

// Calls visit(name, rule) for every rule, in the order rules_text() writes them.
template <class AnyRules, class Visit>
void each_rule(AnyRules& r, Visit&& visit) {
  visit("neutrality", r.neutrality);
  visit("army", r.army);
  visit("mate_judged", r.mate_judged);
  visit("stalemate", r.stalemate);
  visit("first_out_decides", r.first_out_decides);
  visit("out_after_freeze_ends", r.out_after_freeze_ends);
  visit("ranking", r.ranking);
  visit("points.capture", r.points.capture);
  visit("points.mate", r.points.mate);
  visit("points.stalemate", r.points.stalemate);
  visit("points.draw", r.points.draw);
  visit("points.checks", r.points.checks);
  visit("points.checks_by_queens", r.points.checks_by_queens);
  visit("points.lead", r.points.lead);
  visit("move_limit", r.move_limit);
  visit("repetitions", r.repetitions);
  visit("quiet_moves_per_player", r.quiet_moves_per_player);
  visit("insufficient_material", r.insufficient);
}

int number_of(const std::string& name, const std::string& text) {
  size_t used = 0;
  int n = 0;
  try {
    n = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size())
    throw std::invalid_argument("rule " + name + ": " + quoted(text) + " is no number");
  return n;
}

void read_rule(const std::string& name, const std::string& text, bool& rule) {
  if (text != "yes" && text != "no") throw std::invalid_argument("rule " + name + " is yes or no, not " + quoted(text));
  rule = text == "yes";
}
void read_rule(const std::string& name, const std::string& text, int& rule) { rule = number_of(name, text); }
template <size_t N>
void read_rule(const std::string& name, const std::string& text, std::array<int, N>& rule) {
  std::istringstream items(text);
  std::string item;
  size_t count = 0;
  while (std::getline(items, item, ','))
    if (count++ < N) rule[count - 1] = number_of(name, item);
  if (count != N)
    throw std::invalid_argument("rule " + name + " is " + std::to_string(N) + " numbers, not " + quoted(text));
}
template <class Choice>
void read_rule(const std::string& name, const std::string& text, Choice& rule) {
  const std::vector<std::string> words = words_of(rule);
  for (size_t i = 0; i < words.size(); ++i)
    if (words[i] == text) return void(rule = Choice(i));
  std::string known;
  for (const std::string& w : words) known += (known.empty() ? "" : ", ") + w;
  throw std::invalid_argument("rule " + name + " is one of " + known + ", not " + quoted(text));
}

std::string rule_text(bool rule) { return rule ? "yes" : "no"; }
std::string rule_text(int rule) { return std::to_string(rule); }
template <size_t N>
std::string rule_text(const std::array<int, N>& rule) {
  std::string text;
  for (int n : rule) text += (text.empty() ? "" : ",") + std::to_string(n);
  return text;
}
template <class Choice>
std::string rule_text(Choice rule) {
  return words_of(rule)[size_t(rule)];
}

}  // namespace

Rules parse_rules(const std::string& text) {
  Rules rules;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    const size_t equals = word.find('=');
    const std::string name = word.substr(0, equals);
    bool known = false;
    each_rule(rules, [&](const char* rule_name, auto& rule) {
      if (name != rule_name) return;
      if (equals == std::string::npos) throw std::invalid_argument("rule " + name + " has no value (name=value)");
      read_rule(name, word.substr(equals + 1), rule);
      known = true;
    });
    if (!known) throw std::invalid_argument("unknown rule " + quoted(name));
  }
  return rules;
}

std::string rules_text(const Rules& rules) {
  std::string text;
  each_rule(rules, [&](const char* name, const auto& rule) {
    text += (text.empty() ? "" : " ") + std::string(name) + "=" + rule_text(rule);
  });
  return text;
}

}  // namespace polychess
