#include "onramp/wheel/elf_facts.h"

#include <elf.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>

namespace onramp::wheel {
namespace {

constexpr size_t kDynamicLimit = 4u << 20;  // a dynamic section is a few KiB

const std::map<uint16_t, std::string_view>& machine_names() {
  static const std::map<uint16_t, std::string_view> names{
      {EM_X86_64, "x86_64"}, {EM_AARCH64, "aarch64"}, {EM_PPC64, "ppc64"},
      {EM_S390, "s390x"},    {EM_RISCV, "riscv64"},   {EM_386, "i386"}, {EM_ARM, "arm"}};
  return names;
}

// Copies a fixed-layout struct out of `bytes` at `offset`, if it fits.
template <typename T>
std::optional<T> read_at(std::string_view bytes, uint64_t offset) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return std::nullopt;
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

std::optional<std::string> string_at(std::string_view bytes, uint64_t table, uint64_t table_size,
                                     uint64_t index) {
  if (index >= table_size || table > bytes.size() || table + index >= bytes.size()) return std::nullopt;
  std::string_view rest = bytes.substr(table + index, table_size - index);
  size_t nul = rest.find('\0');
  if (nul == std::string_view::npos) return std::nullopt;
  return std::string(rest.substr(0, nul));
}

std::vector<Elf64_Phdr> program_headers(std::string_view bytes, const Elf64_Ehdr& eh) {
  std::vector<Elf64_Phdr> out;
  for (uint64_t i = 0; i < eh.e_phnum; ++i) {
    auto ph = read_at<Elf64_Phdr>(bytes, eh.e_phoff + i * sizeof(Elf64_Phdr));
    if (!ph) break;
    out.push_back(*ph);
  }
  return out;
}

std::optional<uint64_t> file_offset(const std::vector<Elf64_Phdr>& phdrs, uint64_t vaddr) {
  for (const auto& ph : phdrs) {
    if (ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
      return vaddr - ph.p_vaddr + ph.p_offset;
    }
  }
  return std::nullopt;
}

std::optional<Elf64_Ehdr> elf64_header(std::string_view bytes, std::string& why) {
  auto eh = read_at<Elf64_Ehdr>(bytes, 0);
  if (!eh || !starts_like_elf(bytes)) {
    why = "too short for an ELF header";
    return std::nullopt;
  }
  if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB) {
    why = "not a 64-bit little-endian ELF file; its dynamic section is not read";
    return std::nullopt;
  }
  return eh;
}

// Raises `floor` to the version in `name` when name is PREFIX_x.y.
void raise_floor(const std::string& name, std::string_view prefix, std::string& floor) {
  if (!name.starts_with(prefix)) return;
  std::string version = name.substr(prefix.size());
  if (version.empty() || !std::isdigit(static_cast<unsigned char>(version[0]))) return;
  if (floor.empty() || version_less(floor, version)) floor = version;
}

void read_version_needs(std::string_view bytes, uint64_t at, uint64_t count, uint64_t strtab,
                        uint64_t strsz, ElfFacts& facts) {
  for (uint64_t i = 0; i < count && i < 4096; ++i) {
    auto vn = read_at<Elf64_Verneed>(bytes, at);
    if (!vn) return;
    uint64_t aux_at = at + vn->vn_aux;
    for (uint64_t j = 0; j < vn->vn_cnt && j < 4096; ++j) {
      auto aux = read_at<Elf64_Vernaux>(bytes, aux_at);
      if (!aux) return;
      if (auto name = string_at(bytes, strtab, strsz, aux->vna_name)) {
        raise_floor(*name, "GLIBC_", facts.glibc_floor);
        raise_floor(*name, "GLIBCXX_", facts.glibcxx_floor);
      }
      if (aux->vna_next == 0) break;
      aux_at += aux->vna_next;
    }
    if (vn->vn_next == 0) return;
    at += vn->vn_next;
  }
}

}  // namespace

bool starts_like_elf(std::string_view first_bytes) {
  return first_bytes.size() >= 4 && std::memcmp(first_bytes.data(), ELFMAG, SELFMAG) == 0;
}

bool version_less(std::string_view a, std::string_view b) {
  auto parts = [](std::string_view s) {
    std::vector<uint64_t> out;
    for (size_t start = 0; start <= s.size();) {
      size_t dot = std::min(s.find('.', start), s.size());
      out.push_back(std::strtoull(std::string(s.substr(start, dot - start)).c_str(), nullptr, 10));
      start = dot + 1;
    }
    return out;
  };
  return parts(a) < parts(b);
}

void ElfScanner::feed(const char* data, size_t size) {
  uint64_t start = offset_;
  offset_ += size;
  if (prefix_.size() < prefix_limit_) {
    prefix_.append(data, std::min(size, prefix_limit_ - prefix_.size()));
  }
  if (!located_) locate_dynamic();
  if (located_ && dyn_size_ > 0) {
    uint64_t lo = std::max(start, dyn_offset_), hi = std::min(offset_, dyn_offset_ + dyn_size_);
    if (lo < hi) dynamic_.append(data + (lo - start), hi - lo);
  }
}

// The program headers sit right after the ELF header, so the dynamic
// segment's place is known long before the stream reaches it.
void ElfScanner::locate_dynamic() {
  std::string why;
  auto eh = elf64_header(prefix_, why);
  if (!eh) return;
  if (prefix_.size() < eh->e_phoff + uint64_t{eh->e_phnum} * sizeof(Elf64_Phdr)) return;
  located_ = true;
  for (const auto& ph : program_headers(prefix_, *eh)) {
    if (ph.p_type == PT_DYNAMIC) {
      dyn_offset_ = ph.p_offset;
      dyn_size_ = std::min<uint64_t>(ph.p_filesz, kDynamicLimit);
      if (dyn_offset_ < offset_ && dyn_offset_ < prefix_.size()) {
        dynamic_ = prefix_.substr(dyn_offset_, std::min<uint64_t>(dyn_size_, prefix_.size() - dyn_offset_));
      }
    }
  }
}

ElfFacts ElfScanner::finish() const {
  ElfFacts facts;
  auto basic = read_at<Elf64_Ehdr>(prefix_, 0);
  if (basic && starts_like_elf(prefix_)) {
    auto it = machine_names().find(basic->e_machine);
    facts.machine = it != machine_names().end() ? std::string(it->second)
                                                 : fmt::format("machine {}", basic->e_machine);
  }
  auto eh = elf64_header(prefix_, facts.not_read);
  if (!eh) return facts;
  if (!located_ || dyn_size_ == 0) {
    facts.not_read = located_ ? "" : "program headers incomplete";
    return facts;  // a static executable or an object file: nothing needed
  }
  auto phdrs = program_headers(prefix_, *eh);
  uint64_t strtab_addr = 0, strsz = 0, verneed_addr = 0, verneed_num = 0;
  std::vector<uint64_t> needed, soname;
  for (uint64_t at = 0; at + sizeof(Elf64_Dyn) <= dynamic_.size(); at += sizeof(Elf64_Dyn)) {
    auto d = *read_at<Elf64_Dyn>(dynamic_, at);
    if (d.d_tag == DT_NULL) break;
    switch (d.d_tag) {
      case DT_NEEDED: needed.push_back(d.d_un.d_val); break;
      case DT_SONAME: soname.push_back(d.d_un.d_val); break;
      case DT_STRTAB: strtab_addr = d.d_un.d_ptr; break;
      case DT_STRSZ: strsz = d.d_un.d_val; break;
      case DT_VERNEED: verneed_addr = d.d_un.d_ptr; break;
      case DT_VERNEEDNUM: verneed_num = d.d_un.d_val; break;
      default: break;
    }
  }
  auto strtab = file_offset(phdrs, strtab_addr);
  if (!strtab || *strtab + strsz > prefix_.size()) {
    facts.not_read = fmt::format("the dynamic string table lies past the first {} bytes read", prefix_.size());
    return facts;
  }
  for (uint64_t index : needed) {
    if (auto name = string_at(prefix_, *strtab, strsz, index)) facts.needed.push_back(*name);
  }
  if (!soname.empty()) facts.soname = string_at(prefix_, *strtab, strsz, soname.front()).value_or("");
  if (auto verneed = file_offset(phdrs, verneed_addr); verneed && verneed_num > 0) {
    read_version_needs(prefix_, *verneed, verneed_num, *strtab, strsz, facts);
  }
  return facts;
}

}  // namespace onramp::wheel
